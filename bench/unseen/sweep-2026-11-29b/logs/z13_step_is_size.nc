kernel gemm: MMA(i) loadA(i+2) loadB(i+2)
predicted: iteration 0.326 us, bound: tensor cores; 221.0 TFLOP/s predicted (1 CTA(s)/SM, 0.48 waves)
time: parse 1.5 ms, passes 12.8 ms, ptx 47.1 ms (PTX after 63.2 ms), reference 34.4 ms, IR text 2.7 ms, ptxas 0.0 ms, total 65.9 ms
bundle: /tmp/sweep8b/out/z13_step_is_size.nc
