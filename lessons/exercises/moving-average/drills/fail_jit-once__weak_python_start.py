# drill: 1 dtype-drift
initial_state = (0.0, 0)


def update_moving_average(state, new_value):
    current_sum, count = state
    new_sum = current_sum + new_value
    new_count = count + 1
    return (new_sum, new_count), new_sum / new_count
