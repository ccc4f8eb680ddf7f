kernel flat: MMA(i) loadA(i+2) loadB(i+2)
predicted: iteration 1.071 us, bound: latency; 7.7 TFLOP/s predicted (1 CTA(s)/SM, 0.36 waves)
time: parse 1.5 ms, passes 9.0 ms, ptx 31.4 ms (PTX after 43.9 ms), reference 38.6 ms, IR text 1.0 ms, ptxas 0.0 ms, total 44.9 ms
bundle: /tmp/sweep8b/out/n07_m1000.nc
