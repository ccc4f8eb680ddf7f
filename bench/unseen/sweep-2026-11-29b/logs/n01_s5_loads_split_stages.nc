kernel rowblock: loadB(i) MMA(i) loadA(i+3)
predicted: iteration 1.079 us, bound: latency; 61.3 TFLOP/s predicted (1 CTA(s)/SM, 0.24 waves)
time: parse 1.4 ms, passes 13.5 ms, ptx 41.1 ms (PTX after 59.3 ms), reference 54.0 ms, IR text 2.5 ms, ptxas 0.0 ms, total 61.8 ms
bundle: /tmp/sweep8b/out/n01_s5_loads_split_stages.nc
