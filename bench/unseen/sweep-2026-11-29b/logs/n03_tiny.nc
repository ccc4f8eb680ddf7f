kernel bothred: MMA(i) loadA(i+2) loadB(i+2)
predicted: iteration 2.882 us, bound: latency; 0.0 TFLOP/s predicted (1 CTA(s)/SM, 0.01 waves)
time: parse 1.5 ms, passes 17.5 ms, ptx 61.0 ms (PTX after 81.8 ms), reference 49.1 ms, IR text 2.7 ms, ptxas 0.0 ms, total 84.6 ms
bundle: /tmp/sweep8b/out/n03_tiny.nc
