kernel trmm: Tri(i) loadA(i+1) MMA(i) loadB(i+1)
predicted: iteration 0.602 us, bound: latency; 223.7 TFLOP/s predicted (1 CTA(s)/SM, 1.94 waves)
time: parse 1.6 ms, passes 22.2 ms, ptx 96.6 ms (PTX after 123.9 ms), reference 55.2 ms, IR text 2.9 ms, ptxas 0.0 ms, total 126.8 ms
bundle: /tmp/sweep8b/out/n09.nc
