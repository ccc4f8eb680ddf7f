kernel attn_bucket: MMA0(i) Softmax(i) MUL(i) MMA1(i) loadK(i+1) loadV(i+1) loadBias(i+1)
predicted: iteration 1.453 us, bound: latency; 288.8 TFLOP/s predicted (1 CTA(s)/SM, 1.94 waves)
time: parse 1.8 ms, passes 29.2 ms, ptx 90.5 ms (PTX after 124.9 ms), reference 143.1 ms, IR text 4.8 ms, ptxas 0.0 ms, total 149.7 ms
bundle: /tmp/sweep8b/out/a03_S1000.nc
