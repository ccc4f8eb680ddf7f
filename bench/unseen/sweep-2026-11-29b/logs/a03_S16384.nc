kernel attn_bucket: MMA0(i) Softmax(i) MUL(i) MMA1(i) loadK(i+1) loadV(i+1) loadBias(i+1)
predicted: iteration 1.453 us, bound: latency; 364.4 TFLOP/s predicted (1 CTA(s)/SM, 1.94 waves)
time: parse 4.5 ms, passes 29.3 ms, ptx 116.4 ms (PTX after 157.0 ms), reference 248.7 ms, IR text 13.0 ms, ptxas 0.0 ms, total 262.1 ms
bundle: /tmp/sweep8b/out/a03_S16384.nc
