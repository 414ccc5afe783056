def batched_predict(params, xs):
    # Broadcasting the whole batch at once works only when shapes happen to line up.
    return params["w"] * xs + params["b"], params
