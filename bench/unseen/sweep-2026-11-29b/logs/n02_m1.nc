kernel bh_gemm: MMA(i) loadX(i+2) loadW(i+2)
predicted: iteration 2.382 us, bound: latency; 0.0 TFLOP/s predicted (1 CTA(s)/SM, 0.01 waves)
time: parse 1.6 ms, passes 9.3 ms, ptx 43.0 ms (PTX after 55.7 ms), reference 39.5 ms, IR text 2.3 ms, ptxas 0.0 ms, total 58.1 ms
bundle: /tmp/sweep8b/out/n02_m1.nc
