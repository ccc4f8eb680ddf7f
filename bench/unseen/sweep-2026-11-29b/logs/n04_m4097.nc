kernel offs: MMA(i) loadA(i+2) loadB(i+2)
predicted: iteration 0.441 us, bound: TMA loads; 542.7 TFLOP/s predicted (1 CTA(s)/SM, 8.00 waves)
time: parse 1.6 ms, passes 12.6 ms, ptx 48.6 ms (PTX after 67.8 ms), reference 48.3 ms, IR text 2.6 ms, ptxas 0.0 ms, total 70.4 ms
bundle: /tmp/sweep8b/out/n04_m4097.nc
