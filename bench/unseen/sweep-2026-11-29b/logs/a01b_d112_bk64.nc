kernel attn_d112_bk64: MMA0(i) Softmax(i) MUL(i) MMA1(i) loadK(i+1) loadV(i+1)
predicted: iteration 0.943 us, bound: latency; 478.0 TFLOP/s predicted (1 CTA(s)/SM, 7.76 waves)
time: parse 1.7 ms, passes 20.1 ms, ptx 68.8 ms (PTX after 97.7 ms), reference 114.1 ms, IR text 4.1 ms, ptxas 0.0 ms, total 124.3 ms
bundle: /tmp/sweep8b/out/a01b_d112_bk64.nc
