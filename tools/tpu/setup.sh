# Source me on the TPU VM: the tutor from this checkout, its runtime wheels beside the machine's JAX.
PIP_CONFIG_FILE=/dev/null python3 -m pip install --isolated -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl-tpu/*.whl || exit 1
export PYTHONPATH=$PYTHONPATH:/tmp/site:$PWD
export PYTHONUNBUFFERED=1
tutor() { python3 -m tutor "$@"; }
