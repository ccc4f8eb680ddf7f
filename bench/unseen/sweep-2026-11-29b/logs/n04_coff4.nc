kernel offs: MMA(i) loadA(i+2) loadB(i+2)
predicted: iteration 0.349 us, bound: latency; 205.0 TFLOP/s predicted (1 CTA(s)/SM, 0.48 waves)
time: parse 1.7 ms, passes 12.7 ms, ptx 51.7 ms (PTX after 68.2 ms), reference 50.1 ms, IR text 2.6 ms, ptxas 0.0 ms, total 70.8 ms
bundle: /tmp/sweep8b/out/n04_coff4.nc
