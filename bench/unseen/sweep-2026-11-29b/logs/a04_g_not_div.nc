kernel attn_4d_gqa: MMA0(i) Softmax(i) MUL(i) MMA1(i) loadK(i+1) loadV(i+1)
predicted: iteration 2.123 us, bound: latency; 13.7 TFLOP/s predicted (1 CTA(s)/SM, 0.08 waves)
time: parse 1.9 ms, passes 55.4 ms, ptx 267.5 ms (PTX after 327.2 ms), reference 335.0 ms, IR text 5.9 ms, ptxas 0.0 ms, total 341.2 ms
bundle: /tmp/sweep8b/out/a04_g_not_div.nc
