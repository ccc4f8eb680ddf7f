kernel bothred: MMA(i) loadA(i+2) loadB(i+2)
predicted: iteration 0.426 us, bound: TMA loads; 441.8 TFLOP/s predicted (1 CTA(s)/SM, 1.94 waves)
time: parse 1.6 ms, passes 16.9 ms, ptx 64.5 ms (PTX after 85.4 ms), reference 46.1 ms, IR text 2.8 ms, ptxas 0.0 ms, total 88.3 ms
bundle: /tmp/sweep8b/out/n03.nc
