kernel bh_gemm: MMA(i) loadX(i+2) loadW(i+2)
predicted: iteration 0.452 us, bound: TMA loads; 400.1 TFLOP/s predicted (1 CTA(s)/SM, 7.76 waves)
time: parse 1.6 ms, passes 10.3 ms, ptx 51.1 ms (PTX after 67.8 ms), reference 43.5 ms, IR text 2.7 ms, ptxas 0.0 ms, total 70.6 ms
bundle: /tmp/sweep8b/out/n02.nc
