kernel rowblock: MMA(i) loadB(i+2) loadA(i+2)
predicted: iteration 0.381 us, bound: latency; 170.2 TFLOP/s predicted (1 CTA(s)/SM, 0.24 waves)
time: parse 1.5 ms, passes 13.5 ms, ptx 52.8 ms (PTX after 70.9 ms), reference 37.4 ms, IR text 3.2 ms, ptxas 0.0 ms, total 74.1 ms
bundle: /tmp/sweep8b/out/n01_s1_deep_stage64.nc
