kernel attn_4d_gqa: MMA0_1(i) Softmax_2(i) Softmax_3(i) loadK(i+1) Softmax_4(i) Softmax_5(i) loadV(i+1) Softmax_6(i) Softmax_7(i) Softmax_8(i) Softmax_9(i) Softmax_10(i) Softmax_11(i) Softmax_12(i) Softmax_13(i) Softmax_14(i) MUL_15(i) MUL_16(i) MMA1_17(i)
predicted: iteration 2.001 us, bound: latency; 251.4 TFLOP/s predicted (1 CTA(s)/SM, 3.88 waves)
time: parse 1.9 ms, passes 47.7 ms, ptx 168.8 ms (PTX after 223.0 ms), reference 226.7 ms, IR text 8.6 ms, ptxas 0.0 ms, total 237.5 ms
bundle: /tmp/sweep8b/out/a05_every_op_own_unit.nc
