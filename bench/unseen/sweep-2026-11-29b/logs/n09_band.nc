kernel trmm: Tri(i) loadA(i+1) MMA(i) loadB(i+1)
predicted: iteration 0.630 us, bound: latency; 70.1 TFLOP/s predicted (1 CTA(s)/SM, 0.48 waves)
time: parse 1.5 ms, passes 22.3 ms, ptx 72.4 ms (PTX after 98.4 ms), reference 91.1 ms, IR text 2.7 ms, ptxas 0.0 ms, total 101.1 ms
bundle: /tmp/sweep8b/out/n09_band.nc
