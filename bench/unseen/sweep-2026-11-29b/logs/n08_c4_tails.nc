kernel pcl: MMA(i) loadA(i+2) loadB(i+2)
predicted: iteration 0.426 us, bound: TMA loads; 185.3 TFLOP/s predicted (1 CTA(s)/SM, 1.10 waves)
time: parse 1.5 ms, passes 16.9 ms, ptx 58.5 ms (PTX after 79.4 ms), reference 48.4 ms, IR text 2.5 ms, ptxas 0.0 ms, total 81.9 ms
bundle: /tmp/sweep8b/out/n08_c4_tails.nc
