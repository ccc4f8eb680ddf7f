kernel attn_fp8qk: MMA0(i) Softmax(i) MUL(i) MMA1(i) loadK(i+1) loadV(i+1)
predicted: iteration 1.695 us, bound: latency; 606.8 TFLOP/s predicted (1 CTA(s)/SM, 7.76 waves)
time: parse 1.8 ms, passes 27.5 ms, ptx 176.5 ms (PTX after 211.7 ms), reference 200.0 ms, IR text 8.9 ms, ptxas 0.0 ms, total 220.6 ms
bundle: /tmp/sweep8b/out/a02_fp8qk_bf16v_descale.nc
