kernel rowblock: MMA(i) loadA(i+2) loadB(i+2)
predicted: iteration 0.347 us, bound: latency; 37.9 TFLOP/s predicted (1 CTA(s)/SM, 0.06 waves)
time: parse 1.5 ms, passes 36.7 ms, ptx 132.9 ms (PTX after 183.2 ms), reference 79.5 ms, IR text 5.0 ms, ptxas 0.0 ms, total 188.3 ms
bundle: /tmp/sweep8b/out/n01_pp_n1032.nc
