kernel attn_d112: MMA0(i+1) MMA1(i) Softmax(i+1) MUL(i+1) loadK(i+3) loadV(i+2)
predicted: iteration 1.440 us, bound: tensor cores; 475.9 TFLOP/s predicted (1 CTA(s)/SM, 1.94 waves)
time: parse 1.8 ms, passes 39.3 ms, ptx 217.8 ms (PTX after 262.3 ms), reference 284.3 ms, IR text 9.0 ms, ptxas 0.0 ms, total 293.1 ms
bundle: /tmp/sweep8b/out/a01_cp_dot1_s3.nc
