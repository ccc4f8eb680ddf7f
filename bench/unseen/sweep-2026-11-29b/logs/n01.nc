kernel rowblock: MMA(i) loadA(i+2) loadB(i+2)
predicted: iteration 0.381 us, bound: latency; 170.2 TFLOP/s predicted (1 CTA(s)/SM, 0.24 waves)
time: parse 1.6 ms, passes 14.2 ms, ptx 40.5 ms (PTX after 59.5 ms), reference 50.5 ms, IR text 2.4 ms, ptxas 0.0 ms, total 62.0 ms
bundle: /tmp/sweep8b/out/n01.nc
