kernel offs: MMA(i) loadA(i+2) loadB(i+2)
predicted: iteration 0.349 us, bound: latency; 205.8 TFLOP/s predicted (1 CTA(s)/SM, 0.48 waves)
time: parse 1.6 ms, passes 12.9 ms, ptx 50.7 ms (PTX after 67.4 ms), reference 49.6 ms, IR text 2.5 ms, ptxas 0.0 ms, total 69.9 ms
bundle: /tmp/sweep8b/out/n04.nc
