"""The attributes XLA's parser allows on each opcode, recorded from jaxlib 0.10.2 (its
"unexpected attribute X. Allowed attributes: ..." message, asked of every opcode hloscope
knows): any other attribute is an error there, and so it is here, at the attribute.

An opcode in neither table (the async wrappers async-start/-update/-done and
custom-call-start/..., the shorthand forms such as negate-start, any opcode added later)
has its attributes unchecked.
"""

from __future__ import annotations

COMMON = frozenset(
    "backend_config control-predecessors frontend_attributes metadata origin parameter_replication sharding "
    "statistics".split())

# opcode -> its own attributes beyond COMMON ("" when it has none).
_OWN = {
    "all-gather": "channel_id constrain_layout dimensions replica_groups use_global_device_ids",
    "all-gather-start": "channel_id constrain_layout dimensions replica_groups use_global_device_ids",
    "all-reduce": "channel_id constrain_layout mode replica_groups to_apply use_global_device_ids",
    "all-reduce-start": "channel_id constrain_layout mode replica_groups to_apply use_global_device_ids",
    "all-to-all": "channel_id constrain_layout dimensions replica_groups",
    "batch-norm-grad": "epsilon feature_index",
    "batch-norm-inference": "epsilon feature_index",
    "batch-norm-training": "epsilon feature_index",
    "broadcast": "dimensions",
    "call": "is_composite to_apply",
    "cbrt": "result_accuracy",
    "cholesky": "lower",
    "collective-broadcast": "channel_id has_dynamic_root replica_groups",  # has_dynamic_root: jaxlib 0.12
    "collective-permute": "channel_id slice_sizes source_target_pairs",
    "collective-permute-start": "channel_id slice_sizes source_target_pairs",
    "compare": "direction order type",  # order: jaxlib 0.12's spelling of type=TOTALORDER
    "concatenate": "dimensions",
    "conditional": "branch_computations false_computation true_computation",
    "convolution": "batch_group_count convolution_kind dim_labels feature_group_count operand_precision sparsity_config window",
    "copy-start": "cross_program_prefetch_index",
    "cosine": "result_accuracy",
    "custom-call": "api_version batch_group_count called_computations custom_call_has_side_effect custom_call_target dim_labels feature_group_count literal operand_layout_constraints operand_precision output_to_operand_aliasing padding_type schedule to_apply window",
    "domain": "domain",
    "dot": "algorithm lhs_batch_dims lhs_contracting_dims operand_precision rhs_batch_dims rhs_contracting_dims",
    "dynamic-slice": "dynamic_slice_sizes",
    "erf": "result_accuracy",
    "exponential": "result_accuracy",
    "exponential-minus-one": "result_accuracy",
    "fft": "fft_length fft_type",
    "fusion": "calls kind output_to_operand_aliasing",
    "gather": "collapsed_slice_dims index_vector_dim indices_are_sorted offset_dims operand_batching_dims slice_sizes start_index_map start_indices_batching_dims",
    "get-tuple-element": "index",
    "infeed": "infeed_config",
    "iota": "iota_dimension",
    "log": "result_accuracy",
    "log-plus-one": "result_accuracy",
    "logistic": "result_accuracy",
    "map": "dimensions to_apply",
    "outfeed": "outfeed_config outfeed_shape",
    "pad": "padding",
    "ragged-all-to-all": "channel_id dimensions replica_groups",
    "recv": "channel_id is_host_transfer",
    "recv-done": "channel_id is_host_transfer",
    "reduce": "dimensions to_apply",
    "reduce-precision": "exponent_bits mantissa_bits",
    "reduce-scatter": "channel_id constrain_layout dimensions mode replica_groups to_apply use_global_device_ids",
    "reduce-window": "to_apply window",
    "reshape": "inferred_dimension",
    "reverse": "dimensions",
    "rng": "distribution",
    "rng-bit-generator": "algorithm",
    "rng-get-and-update-state": "delta",
    "rsqrt": "result_accuracy",
    "scan": "dimensions is_associative is_reverse num_carries to_apply",
    "scatter": "index_vector_dim indices_are_sorted input_batching_dims inserted_window_dims scatter_dims_to_operand_dims scatter_indices_batching_dims to_apply unique_indices update_window_dims",
    "select-and-scatter": "scatter select window",
    "send": "channel_id is_host_transfer",
    "send-done": "channel_id is_host_transfer",
    "sine": "result_accuracy",
    "slice": "slice",
    "sort": "dimensions is_stable to_apply",
    "sqrt": "result_accuracy",
    "tan": "result_accuracy",
    "tanh": "result_accuracy",
    "topk": "is_stable k largest",  # is_stable: jaxlib 0.12 (hloscope's top-k is always stable)
    "transpose": "dimensions",
    "triangular-solve": "left_side lower transpose_a unit_diagonal",
    "while": "body condition",
}
# Opcodes that take only the COMMON attributes.
_ONLY_COMMON = frozenset("abs add add-dependency after-all all-gather-done all-reduce-done and atan2 bitcast bitcast-convert ceil clamp collective-permute-done complex constant convert copy copy-done count-leading-zeros divide dynamic-update-slice floor imag is-finite maximum minimum multiply negate not opt-barrier or parameter partition-id popcnt power real remainder replica-id round-nearest-afz round-nearest-even select shift-left shift-right-arithmetic shift-right-logical sign subtract tuple xor".split())


def allowed_attributes(opcode: str) -> frozenset[str] | None:
    """The attribute names XLA accepts on `opcode`, or None when hloscope does not check them."""
    if opcode in _OWN:
        return COMMON | frozenset(_OWN[opcode].split())
    return COMMON if opcode in _ONLY_COMMON else None
