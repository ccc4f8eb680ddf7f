kernel bh_gemm: MMA(i) loadX(i+2) loadW(i+2)
predicted: iteration 0.426 us, bound: TMA loads; 559.4 TFLOP/s predicted (1 CTA(s)/SM, 6.00 waves)
time: parse 1.4 ms, passes 9.3 ms, ptx 43.2 ms (PTX after 58.9 ms), reference 41.9 ms, IR text 2.2 ms, ptxas 0.0 ms, total 61.1 ms
bundle: /tmp/sweep8b/out/n02_m4097.nc
