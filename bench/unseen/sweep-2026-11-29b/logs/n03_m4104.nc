kernel bothred: MMA(i) loadA(i+2) loadB(i+2)
predicted: iteration 2.730 us, bound: latency; 1.9 TFLOP/s predicted (1 CTA(s)/SM, 0.50 waves)
time: parse 1.5 ms, passes 18.1 ms, ptx 50.9 ms (PTX after 72.4 ms), reference 61.9 ms, IR text 2.9 ms, ptxas 0.0 ms, total 75.3 ms
bundle: /tmp/sweep8b/out/n03_m4104.nc
