"""A pasted or uploaded Hugging Face ``config.json`` → ``ModelArch`` (nothing is downloaded).
An unknown ``model_type`` or a missing key raises ``ModelConfigError`` naming it."""

from __future__ import annotations

from typing import Any, Mapping, Optional

from .arch import ModelArch, ModelConfigError, _validate_arch, check_limit

#: Largest config.json read (real ones are 1-10 kB; DeepSeek-V3's is 1.7 kB).
MAX_CONFIG_BYTES = 2 * 2 ** 20

SUPPORTED_HF_TYPES = ("llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe",
                      "deepseek_v3", "deepseek_v2", "gemma2", "gpt_neox", "gpt_oss")
"""config.json ``model_type`` values :func:`from_hf_config` understands."""


#: config.json key -> the architecture field whose bound (calc.arch.ARCH_LIMITS) it obeys.
_HF_FIELD = {
    "num_hidden_layers": "n_layers", "hidden_size": "d_model", "num_attention_heads": "n_heads",
    "num_key_value_heads": "n_kv_heads", "head_dim": "head_dim", "intermediate_size": "ffn_size",
    "vocab_size": "vocab_size", "max_position_embeddings": "context_length",
    "num_local_experts": "n_experts", "num_experts": "n_experts", "n_routed_experts": "n_experts",
    "num_experts_per_tok": "experts_per_token", "n_shared_experts": "n_shared_experts",
    "moe_intermediate_size": "expert_ffn_size",
    "shared_expert_intermediate_size": "shared_expert_ffn_size", "sliding_window": "sliding_window",
    "q_lora_rank": "q_lora_rank", "kv_lora_rank": "kv_lora_rank",
    "qk_nope_head_dim": "qk_nope_head_dim", "qk_rope_head_dim": "qk_rope_head_dim",
    "v_head_dim": "v_head_dim", "max_window_layers": "n_layers", "first_k_dense_replace": "n_layers",
    "moe_layer_freq": "n_layers", "decoder_sparse_step": "n_layers",
    "num_nextn_predict_layers": "mtp_layers",
}


def _bounded(key: str, val: int, model_type: str) -> int:
    return check_limit(_HF_FIELD.get(key, ""), val, lambda problem: ModelConfigError(
        f"config.json ({model_type}): key '{key}' {problem}"))


def _need(cfg: Mapping[str, Any], key: str, model_type: str, kind: str = "int") -> Any:
    if key not in cfg or cfg[key] is None:
        raise ModelConfigError(f"config.json ({model_type}): key '{key}' is missing")
    val = cfg[key]
    if kind == "int":
        if isinstance(val, bool) or not isinstance(val, int) or val <= 0:
            raise ModelConfigError(f"config.json ({model_type}): key '{key}' must be a positive integer, got {val!r}")
        _bounded(key, val, model_type)
    return val


def _opt_int(cfg: Mapping[str, Any], key: str, default: int, model_type: str) -> int:
    val = cfg.get(key)
    if val is None:
        return default
    if isinstance(val, bool) or not isinstance(val, int) or val < 0:
        raise ModelConfigError(f"config.json ({model_type}): key '{key}' must be an integer >= 0, got {val!r}")
    return _bounded(key, val, model_type)


def from_hf_config(config: Mapping[str, Any] | str | bytes, *, id: str = "pasted-config",
                   name: Optional[str] = None) -> ModelArch:
    """Parse a Hugging Face ``config.json`` (dict or JSON text) into a ModelArch.

    Supported ``model_type``: SUPPORTED_HF_TYPES (Llama, Mistral, Mixtral, Qwen2/2-MoE,
    Qwen3/3-MoE, DeepSeek-V2/V3, Gemma 2, GPT-NeoX, gpt-oss).  Multimodal wrappers with a
    ``text_config`` are read from it.  Raises ModelConfigError naming the missing or bad
    key, or the unknown architecture.  No download: the user brings the file.
    Sources: the configuration_*.py / modeling_*.py files of Hugging Face transformers.
    """
    if isinstance(config, (str, bytes, bytearray)):
        from calc.json_in import read_json
        config = read_json(config, "config.json", max_bytes=MAX_CONFIG_BYTES,
                           error=ModelConfigError)
    if not isinstance(config, Mapping):
        raise ModelConfigError(f"config.json must be a JSON object, got {type(config).__name__}")
    cfg = config
    if "model_type" not in cfg and isinstance(cfg.get("text_config"), Mapping):
        cfg = cfg["text_config"]
    elif isinstance(cfg.get("text_config"), Mapping) and cfg.get("model_type") not in SUPPORTED_HF_TYPES:
        cfg = cfg["text_config"]
    mt = cfg.get("model_type")
    if mt is None:
        raise ModelConfigError("config.json: key 'model_type' is missing "
                               f"(supported: {', '.join(SUPPORTED_HF_TYPES)})")
    if mt not in SUPPORTED_HF_TYPES:
        raise ModelConfigError(f"config.json: model_type '{mt}' is not supported "
                               f"(supported: {', '.join(SUPPORTED_HF_TYPES)})")
    arch_name = name or cfg.get("_name_or_path") or (cfg.get("architectures") or [mt])[0]
    if not isinstance(arch_name, str) or not arch_name.strip():
        arch_name = mt
    if mt == "gpt_neox":
        L = _need(cfg, "num_hidden_layers", mt)
        d = _need(cfg, "hidden_size", mt)
        h = _need(cfg, "num_attention_heads", mt)
        kw = dict(n_layers=L, d_model=d, n_heads=h, n_kv_heads=h, head_dim=d // h,
                  ffn_size=_need(cfg, "intermediate_size", mt), ffn_kind="plain",
                  vocab_size=_need(cfg, "vocab_size", mt),
                  tied_embeddings=bool(cfg.get("tie_word_embeddings", False)),
                  norm="layernorm", attention_bias="all" if cfg.get("attention_bias", True) else "none",
                  mlp_bias=True, context_length=_opt_int(cfg, "max_position_embeddings", 0, mt))
        return _finish_hf(kw, id, arch_name, mt)
    L = _need(cfg, "num_hidden_layers", mt)
    d = _need(cfg, "hidden_size", mt)
    h = _need(cfg, "num_attention_heads", mt)
    kv = _opt_int(cfg, "num_key_value_heads", h, mt) or h
    hd = _opt_int(cfg, "head_dim", 0, mt) or d // h
    V = _need(cfg, "vocab_size", mt)
    tie_default = mt in ("gemma2",)
    kw: dict[str, Any] = dict(
        n_layers=L, d_model=d, n_heads=h, n_kv_heads=kv, head_dim=hd, vocab_size=V,
        ffn_kind="gated", tied_embeddings=bool(cfg.get("tie_word_embeddings", tie_default)),
        norm="rmsnorm", context_length=_opt_int(cfg, "max_position_embeddings", 0, mt),
        ffn_size=_opt_int(cfg, "intermediate_size", 0, mt))
    if cfg.get("attention_bias"):
        kw["attention_bias"] = "all"
    if cfg.get("mlp_bias"):
        kw["mlp_bias"] = True
    if mt in ("qwen2", "qwen2_moe"):
        kw["attention_bias"] = "qkv"
    if mt in ("qwen3", "qwen3_moe"):
        kw["qk_norm"] = True
    sw = cfg.get("sliding_window")
    use_sw = cfg.get("use_sliding_window", True)
    if mt in ("mistral", "mixtral") and isinstance(sw, int) and sw > 0:
        kw.update(sliding_window=sw, sliding_layers="all")
    if mt in ("qwen2", "qwen3", "qwen2_moe", "qwen3_moe") and use_sw and isinstance(sw, int) and sw > 0:
        mwl = _opt_int(cfg, "max_window_layers", 0, mt)
        layers = tuple(i for i in range(L) if i >= mwl)
        if layers:
            kw.update(sliding_window=sw, sliding_layers=layers)
    if mt == "gemma2":
        kw["norms_per_layer"] = 4
        kw["tied_embeddings"] = bool(cfg.get("tie_word_embeddings", True))
        if isinstance(sw, int) and sw > 0:
            kw.update(sliding_window=sw, sliding_layers="even")
    if mt == "gpt_oss":
        kw["attention_bias"] = "all" if cfg.get("attention_bias", True) else "none"
        kw["mlp_bias"] = True
        types = cfg.get("layer_types")
        if isinstance(sw, int) and sw > 0:
            if isinstance(types, list) and len(types) == L:
                layers = tuple(i for i, t_ in enumerate(types) if t_ == "sliding_attention")
                kw.update(sliding_window=sw, sliding_layers=layers)
            else:
                kw.update(sliding_window=sw, sliding_layers="even")
        E = cfg.get("num_local_experts", cfg.get("num_experts"))
        if E is None:
            raise ModelConfigError("config.json (gpt_oss): key 'num_local_experts' is missing")
        k = cfg.get("num_experts_per_tok", cfg.get("experts_per_token"))
        if k is None:
            raise ModelConfigError("config.json (gpt_oss): key 'num_experts_per_tok' is missing")
        f = _need(cfg, "intermediate_size", mt)
        kw.update(n_experts=E, experts_per_token=k, expert_ffn_size=f, ffn_size=f)
    if mt == "mixtral":
        kw.update(n_experts=_need(cfg, "num_local_experts", mt),
                  experts_per_token=_need(cfg, "num_experts_per_tok", mt),
                  expert_ffn_size=_need(cfg, "intermediate_size", mt))
    if mt in ("qwen2_moe", "qwen3_moe"):
        E = _need(cfg, "num_experts", mt)
        kw.update(n_experts=E, experts_per_token=_need(cfg, "num_experts_per_tok", mt),
                  expert_ffn_size=_need(cfg, "moe_intermediate_size", mt))
        step = _opt_int(cfg, "decoder_sparse_step", 1, mt) or 1
        only = cfg.get("mlp_only_layers") or []
        if not isinstance(only, list):
            raise ModelConfigError(f"config.json ({mt}): key 'mlp_only_layers' must be a list")
        dense = tuple(i for i in range(L) if i in only or (i + 1) % step != 0)
        kw["dense_layers"] = dense
        if mt == "qwen2_moe":
            sh = _opt_int(cfg, "shared_expert_intermediate_size", 0, mt)
            if sh:
                kw.update(n_shared_experts=1, shared_expert_ffn_size=sh)
            # the shared-expert gate (d → 1) is negligible and not counted
        if dense and not kw["ffn_size"]:
            raise ModelConfigError(f"config.json ({mt}): key 'intermediate_size' is missing")
    if mt in ("deepseek_v3", "deepseek_v2"):
        E = _need(cfg, "n_routed_experts", mt)
        kw.update(n_experts=E, experts_per_token=_need(cfg, "num_experts_per_tok", mt),
                  expert_ffn_size=_need(cfg, "moe_intermediate_size", mt),
                  n_shared_experts=_opt_int(cfg, "n_shared_experts", 0, mt),
                  kv_lora_rank=_need(cfg, "kv_lora_rank", mt),
                  q_lora_rank=_opt_int(cfg, "q_lora_rank", 0, mt),
                  qk_nope_head_dim=_need(cfg, "qk_nope_head_dim", mt),
                  qk_rope_head_dim=_need(cfg, "qk_rope_head_dim", mt),
                  v_head_dim=_need(cfg, "v_head_dim", mt),
                  head_dim=_need(cfg, "qk_nope_head_dim", mt) + _need(cfg, "qk_rope_head_dim", mt),
                  n_kv_heads=h)
        kw["mtp_layers"] = _opt_int(cfg, "num_nextn_predict_layers", 0, mt)   # DeepSeek-V3: 1
        first = _opt_int(cfg, "first_k_dense_replace", 0, mt)
        freq = _opt_int(cfg, "moe_layer_freq", 1, mt) or 1
        kw["dense_layers"] = tuple(i for i in range(L) if i < first or i % freq != 0)
        if kw["dense_layers"] and not kw["ffn_size"]:
            raise ModelConfigError(f"config.json ({mt}): key 'intermediate_size' is missing")
    if not kw.get("n_experts") and not kw["ffn_size"]:
        raise ModelConfigError(f"config.json ({mt}): key 'intermediate_size' is missing")
    if not kw["ffn_size"]:
        kw["ffn_size"] = kw.get("expert_ffn_size", 1) or 1
    return _finish_hf(kw, id, arch_name, mt)


def _finish_hf(kw: dict[str, Any], id_: str, name: str, mt: str) -> ModelArch:
    arch = ModelArch(id=id_, name=name, source=f"pasted config.json (model_type {mt})", **kw)
    try:
        _validate_arch(arch)
    except ModelConfigError as e:
        raise ModelConfigError(f"config.json ({mt}): {e}") from None
    return arch

