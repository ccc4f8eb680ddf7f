kernel rowblock: MMA(i) loadA(i+2) loadB(i+2)
predicted: iteration 0.349 us, bound: latency; 183.2 TFLOP/s predicted (1 CTA(s)/SM, 0.24 waves)
time: parse 1.5 ms, passes 20.6 ms, ptx 89.0 ms (PTX after 114.1 ms), reference 44.6 ms, IR text 4.5 ms, ptxas 0.0 ms, total 118.7 ms
bundle: /tmp/sweep8b/out/n01_pp.nc
