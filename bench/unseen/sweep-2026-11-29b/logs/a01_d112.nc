kernel attn_d112: MMA0(i) Softmax(i) MUL(i) MMA1(i) loadK(i+1) loadV(i+1)
predicted: iteration 1.689 us, bound: latency; 530.0 TFLOP/s predicted (1 CTA(s)/SM, 7.76 waves)
time: parse 1.7 ms, passes 38.1 ms, ptx 152.5 ms (PTX after 198.3 ms), reference 247.0 ms, IR text 9.2 ms, ptxas 0.0 ms, total 263.2 ms
bundle: /tmp/sweep8b/out/a01_d112.nc
