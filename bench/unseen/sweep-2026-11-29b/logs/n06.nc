kernel mx256: MMA(i) loadA(i+2) loadSA(i+2) loadB(i+2) loadSB(i+2)
predicted: iteration 2.091 us, bound: CUDA cores; 235.3 TFLOP/s predicted (1 CTA(s)/SM, 3.88 waves)
time: parse 1.5 ms, passes 118.7 ms, ptx 473.6 ms (PTX after 596.9 ms), reference 91.8 ms, IR text 9.1 ms, ptxas 0.0 ms, total 606.1 ms
bundle: /tmp/sweep8b/out/n06.nc
