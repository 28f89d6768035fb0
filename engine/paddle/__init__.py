"""What only Paddle's passes need: grad definitions, backward, optimizer, partition, SPMD duals, the Paddle functions rules call (api -> paddle)."""
