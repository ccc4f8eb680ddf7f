kernel mx256: MMA(i) loadA(i+2) loadSA(i+2) loadB(i+2) loadSB(i+2)
predicted: iteration 4.666 us, bound: latency; 0.1 TFLOP/s predicted (1 CTA(s)/SM, 0.01 waves)
time: parse 1.5 ms, passes 69.7 ms, ptx 239.9 ms (PTX after 312.9 ms), reference 114.6 ms, IR text 5.1 ms, ptxas 0.0 ms, total 318.1 ms
bundle: /tmp/sweep8b/out/n06_k32.nc
