kernel gemm: MMA(i) loadA(i+2) loadB(i+2)
predicted: iteration 0.326 us, bound: tensor cores; 151.0 TFLOP/s predicted (1 CTA(s)/SM, 0.48 waves)
time: parse 1.4 ms, passes 12.3 ms, ptx 41.7 ms (PTX after 57.2 ms), reference 32.6 ms, IR text 2.5 ms, ptxas 0.0 ms, total 59.7 ms
bundle: /tmp/sweep8b/out/z13_bk128.nc
