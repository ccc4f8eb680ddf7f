kernel gemm: MMA(i) loadA(i+2) loadB(i+2)
predicted: iteration 0.334 us, bound: tensor cores; 278.3 TFLOP/s predicted (1 CTA(s)/SM, 0.48 waves)
time: parse 1.4 ms, passes 12.0 ms, ptx 41.4 ms (PTX after 56.7 ms), reference 32.5 ms, IR text 2.4 ms, ptxas 0.0 ms, total 59.2 ms
bundle: /tmp/sweep8b/out/z13_bk32.nc
