kernel rowblock: MMA(i) loadA(i+2) loadB(i+2)
predicted: iteration 0.539 us, bound: latency; 122.1 TFLOP/s predicted (1 CTA(s)/SM, 0.24 waves)
time: parse 1.7 ms, passes 28.4 ms, ptx 95.6 ms (PTX after 128.5 ms), reference 36.0 ms, IR text 8.7 ms, ptxas 0.0 ms, total 137.2 ms
bundle: /tmp/sweep8b/out/n01_s2_all_group0.nc
