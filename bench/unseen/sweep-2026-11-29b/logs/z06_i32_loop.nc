kernel gemm: MMA(i) loadA(i+2) loadB(i+2)
predicted: iteration 0.326 us, bound: tensor cores; 221.0 TFLOP/s predicted (1 CTA(s)/SM, 0.48 waves)
time: parse 1.4 ms, passes 12.2 ms, ptx 44.3 ms (PTX after 59.6 ms), reference 33.3 ms, IR text 2.2 ms, ptxas 0.0 ms, total 61.9 ms
bundle: /tmp/sweep8b/out/z06_i32_loop.nc
