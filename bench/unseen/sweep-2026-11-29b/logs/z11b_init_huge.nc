kernel gemm: MMA(i) loadA(i+2) loadB(i+2)
predicted: iteration 0.326 us, bound: tensor cores; 221.0 TFLOP/s predicted (1 CTA(s)/SM, 0.48 waves)
time: parse 1.5 ms, passes 13.4 ms, ptx 44.9 ms (PTX after 62.3 ms), reference 34.6 ms, IR text 2.6 ms, ptxas 0.0 ms, total 65.0 ms
bundle: /tmp/sweep8b/out/z11b_init_huge.nc
