kernel attn_4d_gqa: MMA0(i) Softmax(i) MUL(i) MMA1(i) loadK(i+1) loadV(i+1)
predicted: iteration 1.332 us, bound: latency; 175.8 TFLOP/s predicted (1 CTA(s)/SM, 1.09 waves)
time: parse 1.7 ms, passes 21.8 ms, ptx 94.6 ms (PTX after 121.0 ms), reference 99.6 ms, IR text 5.0 ms, ptxas 0.0 ms, total 126.0 ms
bundle: /tmp/sweep8b/out/a04_tails.nc
