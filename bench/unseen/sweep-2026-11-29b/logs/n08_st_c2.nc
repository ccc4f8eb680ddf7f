kernel pcl: MMA(i) loadA(i+2) loadB(i+2)
predicted: iteration 0.426 us, bound: TMA loads; 185.3 TFLOP/s predicted (1 CTA(s)/SM, 1.00 waves)
time: parse 2.0 ms, passes 21.0 ms, ptx 45.1 ms (PTX after 71.1 ms), reference 64.0 ms, IR text 2.3 ms, ptxas 0.0 ms, total 73.5 ms
bundle: /tmp/sweep8b/out/n08_st_c2.nc
