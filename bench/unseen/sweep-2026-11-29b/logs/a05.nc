kernel attn_4d_gqa: MMA0_1(i) Softmax_2(i) Softmax_3(i) loadK(i+1) Softmax_4(i) Softmax_5(i) loadV(i+1) Softmax_6(i) Softmax_7(i) Softmax_8(i) Softmax_9(i) Softmax_10(i) Softmax_11(i) Softmax_12(i) Softmax_13(i) Softmax_14(i) MUL_15(i) MUL_16(i) MMA1_17(i)
predicted: iteration 2.001 us, bound: latency; 251.4 TFLOP/s predicted (1 CTA(s)/SM, 3.88 waves)
time: parse 3.3 ms, passes 94.1 ms, ptx 301.0 ms (PTX after 413.2 ms), reference 389.0 ms, IR text 17.4 ms, ptxas 0.0 ms, total 430.7 ms
bundle: /tmp/sweep8b/out/a05.nc
