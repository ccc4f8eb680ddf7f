kernel pcl: MMA(i) loadA(i+2) loadB(i+2)
predicted: iteration 0.426 us, bound: TMA loads; 185.3 TFLOP/s predicted (1 CTA(s)/SM, 1.10 waves)
time: parse 1.6 ms, passes 27.2 ms, ptx 64.9 ms (PTX after 96.3 ms), reference 64.2 ms, IR text 5.0 ms, ptxas 0.0 ms, total 101.4 ms
bundle: /tmp/sweep8b/out/n08_pp_c4.nc
