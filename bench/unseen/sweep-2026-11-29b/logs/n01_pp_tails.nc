kernel rowblock: MMA(i) loadA(i+2) loadB(i+2)
predicted: iteration 0.348 us, bound: latency; 38.7 TFLOP/s predicted (1 CTA(s)/SM, 0.06 waves)
time: parse 1.7 ms, passes 22.5 ms, ptx 74.7 ms (PTX after 101.6 ms), reference 53.3 ms, IR text 5.1 ms, ptxas 0.0 ms, total 106.8 ms
bundle: /tmp/sweep8b/out/n01_pp_tails.nc
