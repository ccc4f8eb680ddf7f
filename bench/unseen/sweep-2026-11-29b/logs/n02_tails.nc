kernel bh_gemm: MMA(i) loadX(i+2) loadW(i+2)
predicted: iteration 1.271 us, bound: latency; 8.5 TFLOP/s predicted (1 CTA(s)/SM, 0.45 waves)
time: parse 1.7 ms, passes 10.3 ms, ptx 47.2 ms (PTX after 61.5 ms), reference 41.2 ms, IR text 2.5 ms, ptxas 0.0 ms, total 64.0 ms
bundle: /tmp/sweep8b/out/n02_tails.nc
