kernel pcl: MMA(i) loadA(i+2) loadB(i+2)
predicted: iteration 0.444 us, bound: TMA loads; 592.6 TFLOP/s predicted (1 CTA(s)/SM, 1.00 waves)
time: parse 1.8 ms, passes 17.3 ms, ptx 51.7 ms (PTX after 82.0 ms), reference 71.8 ms, IR text 2.7 ms, ptxas 0.0 ms, total 85.8 ms
bundle: /tmp/sweep8b/out/n08.nc
