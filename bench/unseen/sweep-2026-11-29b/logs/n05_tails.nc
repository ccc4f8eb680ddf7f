kernel e5e5: MMA(i) loadA(i+2) loadB(i+2)
predicted: iteration 0.348 us, bound: latency; 0.5 TFLOP/s predicted (1 CTA(s)/SM, 0.06 waves)
time: parse 1.5 ms, passes 9.8 ms, ptx 45.2 ms (PTX after 58.4 ms), reference 77.3 ms, IR text 2.5 ms, ptxas 0.0 ms, total 85.6 ms
bundle: /tmp/sweep8b/out/n05_tails.nc
