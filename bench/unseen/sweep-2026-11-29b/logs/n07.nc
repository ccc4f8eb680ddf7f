kernel flat: MMA(i) loadA(i+2) loadB(i+2)
predicted: iteration 2.584 us, bound: latency; 30.0 TFLOP/s predicted (1 CTA(s)/SM, 0.97 waves)
time: parse 1.5 ms, passes 14.6 ms, ptx 70.5 ms (PTX after 88.6 ms), reference 117.7 ms, IR text 1.2 ms, ptxas 0.0 ms, total 123.5 ms
bundle: /tmp/sweep8b/out/n07.nc
