kernel attn_4d_gqa: MMA0(i) Softmax(i) MUL(i) MMA1(i) loadK(i+1) loadV(i+1)
predicted: iteration 1.332 us, bound: latency; 366.1 TFLOP/s predicted (1 CTA(s)/SM, 3.88 waves)
time: parse 1.8 ms, passes 22.8 ms, ptx 146.6 ms (PTX after 175.6 ms), reference 230.1 ms, IR text 13.7 ms, ptxas 0.0 ms, total 239.7 ms
bundle: /tmp/sweep8b/out/a04_4d_grid3d_gqa_size_d64.nc
