kernel e5e5: MMA(i) loadA(i+2) loadB(i+2)
predicted: iteration 0.437 us, bound: TMA loads; 1157.6 TFLOP/s predicted (1 CTA(s)/SM, 7.76 waves)
time: parse 1.5 ms, passes 9.6 ms, ptx 43.1 ms (PTX after 58.3 ms), reference 38.1 ms, IR text 2.3 ms, ptxas 0.0 ms, total 60.7 ms
bundle: /tmp/sweep8b/out/n05.nc
