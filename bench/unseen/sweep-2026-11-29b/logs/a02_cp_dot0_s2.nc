kernel attn_fp8qk: MMA0(i+1) Softmax(i) MUL(i) MMA1(i) loadK(i+3) loadV(i+2)
predicted: iteration 1.700 us, bound: latency; 88.0 TFLOP/s predicted (1 CTA(s)/SM, 0.18 waves)
time: parse 1.9 ms, passes 37.4 ms, ptx 217.7 ms (PTX after 259.6 ms), reference 296.3 ms, IR text 9.1 ms, ptxas 0.0 ms, total 304.6 ms
bundle: /tmp/sweep8b/out/a02_cp_dot0_s2.nc
