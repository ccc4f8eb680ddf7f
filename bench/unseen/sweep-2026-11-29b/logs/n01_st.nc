kernel rowblock: MMA(i) loadA(i+2) loadB(i+2)
predicted: iteration 0.349 us, bound: latency; 167.6 TFLOP/s predicted (1 CTA(s)/SM, 0.24 waves)
time: parse 1.5 ms, passes 13.8 ms, ptx 52.5 ms (PTX after 71.0 ms), reference 34.6 ms, IR text 2.6 ms, ptxas 0.0 ms, total 73.6 ms
bundle: /tmp/sweep8b/out/n01_st.nc
