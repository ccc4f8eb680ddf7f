kernel rowblock: MMA(i) loadA(i+2) loadB(i+2)
predicted: iteration 0.407 us, bound: latency; 36.0 TFLOP/s predicted (1 CTA(s)/SM, 0.06 waves)
time: parse 1.6 ms, passes 14.2 ms, ptx 50.5 ms (PTX after 69.0 ms), reference 45.6 ms, IR text 2.6 ms, ptxas 0.0 ms, total 71.7 ms
bundle: /tmp/sweep8b/out/n01_tails.nc
