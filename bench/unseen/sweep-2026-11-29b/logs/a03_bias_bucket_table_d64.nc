kernel attn_bucket: MMA0(i) Softmax(i) MUL(i) MMA1(i) loadK(i+1) loadV(i+1) loadBias(i+1)
predicted: iteration 1.453 us, bound: latency; 354.5 TFLOP/s predicted (1 CTA(s)/SM, 7.76 waves)
time: parse 1.8 ms, passes 29.4 ms, ptx 119.0 ms (PTX after 156.8 ms), reference 226.6 ms, IR text 5.1 ms, ptxas 0.0 ms, total 236.8 ms
bundle: /tmp/sweep8b/out/a03_bias_bucket_table_d64.nc
