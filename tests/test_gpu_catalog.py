"""The GPU catalog: names as written in deployment files -> GPU and compute capability.

Facts and spellings come from reference/gpu-names.md (sections 3-5); see linter/gpus/catalog.json.
"""

from __future__ import annotations

import json
from collections import defaultdict
from importlib import resources

import pytest

from linter.gpus import catalog
from linter.gpus.catalog import Gpu, all_gpus, lookup, normalise, why_unknown


def _data():
    return json.loads(resources.files("linter.gpus").joinpath("catalog.json").read_text(encoding="utf-8"))


DATA = _data()
ENTRIES = DATA["gpus"]

B200 = "NVIDIA B200"
GB200 = "NVIDIA GB200"
B300 = "NVIDIA B300"
GB300 = "NVIDIA GB300"
THOR = "NVIDIA Jetson Thor"
RUBIN = "NVIDIA Rubin"
RTXPRO6000 = "NVIDIA RTX PRO 6000 Blackwell Server Edition"
H100 = "NVIDIA H100 SXM5 80GB"
H100_PCIE = "NVIDIA H100 PCIe"
H100_NVL = "NVIDIA H100 NVL"
H200 = "NVIDIA H200 SXM 141GB"
A100_40 = "NVIDIA A100 40GB"
A100_80 = "NVIDIA A100 80GB"
MI300X = "AMD Instinct MI300X"

KNOWN = [
    # --- SM100 / SM103 / SM110 / SM107 (YES rows) ---
    ("B200", B200, (10, 0)),
    ("b200", B200, (10, 0)),
    ("NVIDIA B200", B200, (10, 0)),
    ("NVIDIA-B200", B200, (10, 0)),
    ("nvidia-b200", B200, (10, 0)),
    ("nvidia_b200", B200, (10, 0)),
    ("gpu:nvidia_b200:8", B200, (10, 0)),
    ("nvidia_b200_3g.90gb", B200, (10, 0)),
    ("NVIDIA-B200-MIG-1g.23gb", B200, (10, 0)),
    ("B200+", B200, (10, 0)),
    ("B200:8", B200, (10, 0)),
    ("HGX B200", B200, (10, 0)),
    ("DGX B200", B200, (10, 0)),
    ("NvidiaB200", B200, (10, 0)),
    ("a4-highgpu-8g", B200, (10, 0)),
    ("a4-highgpu-8g-lowmem", B200, (10, 0)),
    ("p6-b200.48xlarge", B200, (10, 0)),
    ("ml.p6-b200.48xlarge", B200, (10, 0)),
    ("BM.GPU.B200.8", B200, (10, 0)),
    ("gpu_8x_b200_sxm6", B200, (10, 0)),
    ("gpu_1x_b200_sxm6", B200, (10, 0)),
    ("B200 SXM6", B200, (10, 0)),
    ("GB200", GB200, (10, 0)),
    ("NVIDIA GB200", GB200, (10, 0)),
    ("NVIDIA-GB200", GB200, (10, 0)),
    ("nvidia-gb200", GB200, (10, 0)),
    ("GB200 NVL72", GB200, (10, 0)),
    ("NVIDIA HGX GB200 NVL", GB200, (10, 0)),
    ("a4x-highgpu-4g", GB200, (10, 0)),
    ("a4x-highgpu-4g-nolssd", GB200, (10, 0)),
    ("p6e-gb200.36xlarge", GB200, (10, 0)),
    ("Standard_ND128isr_NDR_GB200_v6", GB200, (10, 0)),
    ("BM.GPU.GB200.4", GB200, (10, 0)),
    ("BM.GPU.GB200-v3.4", GB200, (10, 0)),
    ("gb200-4", GB200, (10, 0)),
    ("B300", B300, (10, 3)),
    ("Blackwell Ultra", B300, (10, 3)),
    ("NVIDIA B300 SXM6 AC", B300, (10, 3)),
    ("NVIDIA-B300-SXM6-AC", B300, (10, 3)),
    ("NVIDIA-B300-SXM6-AC-269GB", B300, (10, 3)),
    ("p6-b300.48xlarge", B300, (10, 3)),
    ("ml.p6-b300.48xlarge", B300, (10, 3)),
    ("BM.GPU.B300.8", B300, (10, 3)),
    ("HGX B300", B300, (10, 3)),
    ("GB300", GB300, (10, 3)),
    ("NVIDIA-GB300", GB300, (10, 3)),
    ("nvidia-gb300", GB300, (10, 3)),
    ("gpu:gb300:4", GB300, (10, 3)),
    ("a4x-maxgpu-4g-metal", GB300, (10, 3)),
    ("p6e-gb300.48xlarge", GB300, (10, 3)),
    ("Standard_ND128isr_GB300_v6", GB300, (10, 3)),
    ("Standard_ND128isrG5_GB300_v6", GB300, (10, 3)),
    ("BM.GPU.GB300.4", GB300, (10, 3)),
    ("GB300 NVL72", GB300, (10, 3)),
    ("B100", "NVIDIA B100", (10, 0)),
    ("Thor", THOR, (11, 0)),
    ("Jetson AGX Thor", THOR, (11, 0)),
    ("NVIDIA Jetson AGX Thor Developer Kit", THOR, (11, 0)),
    ("NVIDIA Thor", THOR, (11, 0)),
    ("NVIDIA-Thor", THOR, (11, 0)),
    ("Jetson T5000", THOR, (11, 0)),
    ("Rubin", RUBIN, (10, 7)),
    ("VR200", RUBIN, (10, 7)),
    ("Vera Rubin", RUBIN, (10, 7)),
    # --- Blackwell, but SM120 / SM121 ---
    ("RTX PRO 6000", RTXPRO6000, (12, 0)),
    ("RTX PRO 6000 Blackwell", RTXPRO6000, (12, 0)),
    ("RTX PRO 6000 Blackwell Server Edition", RTXPRO6000, (12, 0)),
    ("NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition", RTXPRO6000, (12, 0)),
    ("nvidia-rtx-pro-6000", RTXPRO6000, (12, 0)),
    ("nvidia-rtx-pro-6000-vws", RTXPRO6000, (12, 0)),
    ("RTXPRO6000", RTXPRO6000, (12, 0)),
    ("RTX-PRO-6000", RTXPRO6000, (12, 0)),
    ("rtx_pro_6000", RTXPRO6000, (12, 0)),
    ("rtx-pro-server-6000", RTXPRO6000, (12, 0)),
    ("NvidiaRtxPro6000", RTXPRO6000, (12, 0)),
    ("g7e.2xlarge", RTXPRO6000, (12, 0)),
    ("g7e.12xlarge", RTXPRO6000, (12, 0)),
    ("g4-standard-96", RTXPRO6000, (12, 0)),
    ("g4-standard-384", RTXPRO6000, (12, 0)),
    ("Standard_NC128ds_xl_RTXPRO6000BSE_v6", RTXPRO6000, (12, 0)),
    ("BM.GPU.RTXPRO.8", RTXPRO6000, (12, 0)),
    (
        "NVIDIA-RTX-PRO-6000-Blackwell-Max-Q-Workstation-Edition",
        "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition",
        (12, 0),
    ),
    (
        "RTX PRO 6000 Blackwell Workstation Edition",
        "NVIDIA RTX PRO 6000 Blackwell Workstation Edition",
        (12, 0),
    ),
    ("RTX PRO 5000 Blackwell", "NVIDIA RTX PRO 5000 Blackwell", (12, 0)),
    ("RTX PRO 4500 Blackwell", "NVIDIA RTX PRO 4500 Blackwell", (12, 0)),
    ("rtx-pro-4500", "NVIDIA RTX PRO 4500 Blackwell Server Edition", (12, 0)),
    ("g7.2xlarge", "NVIDIA RTX PRO 4500 Blackwell Server Edition", (12, 0)),
    ("RTX PRO 4000 Blackwell SFF Edition", "NVIDIA RTX PRO 4000 Blackwell SFF Edition", (12, 0)),
    ("RTX PRO 2000", "NVIDIA RTX PRO 2000 Blackwell", (12, 0)),
    ("RTX 5090", "NVIDIA GeForce RTX 5090", (12, 0)),
    ("GeForce RTX 5090", "NVIDIA GeForce RTX 5090", (12, 0)),
    ("NVIDIA GeForce RTX 5090", "NVIDIA GeForce RTX 5090", (12, 0)),
    ("NVIDIA-GeForce-RTX-5090", "NVIDIA GeForce RTX 5090", (12, 0)),
    ("RTX5090", "NVIDIA GeForce RTX 5090", (12, 0)),
    ("ADA_32_PRO", "NVIDIA GeForce RTX 5090", (12, 0)),
    ("NVIDIA GeForce RTX 5080", "NVIDIA GeForce RTX 5080", (12, 0)),
    ("RTX 5070 Ti", "NVIDIA GeForce RTX 5070 Ti", (12, 0)),
    ("RTX5070", "NVIDIA GeForce RTX 5070", (12, 0)),
    ("GB10", "NVIDIA GB10", (12, 1)),
    ("NVIDIA-GB10", "NVIDIA GB10", (12, 1)),
    ("NVIDIA GB10 (DGX Spark)", "NVIDIA GB10", (12, 1)),
    ("DGX Spark", "NVIDIA GB10", (12, 1)),
    # --- Hopper ---
    ("H100", H100, (9, 0)),
    ("h100", H100, (9, 0)),
    ("H100!", H100, (9, 0)),
    ("H100:8", H100, (9, 0)),
    ("H100-80GB", H100, (9, 0)),
    ("H100-SXM5-80GB", H100, (9, 0)),
    ("NVIDIA-H100-SXM5-80GB", H100, (9, 0)),
    ("H100 80GB HBM3", H100, (9, 0)),
    ("NVIDIA H100 80GB HBM3", H100, (9, 0)),
    ("NVIDIA-H100-80GB-HBM3", H100, (9, 0)),
    ("NVIDIA-H100-80GB-HBM3-SHARED", H100, (9, 0)),
    ("NVIDIA-H100-80GB-HBM3-MIG-1g.10gb", H100, (9, 0)),
    ("nvidia_h100_80gb_hbm3", H100, (9, 0)),
    ("gpu:nvidia_h100_80gb_hbm3:8", H100, (9, 0)),
    ("nvidia_h100_80gb_hbm3_1g.10gb", H100, (9, 0)),
    ("nvidia-h100-80gb", H100, (9, 0)),
    ("nvidia-h100-mega-80gb", H100, (9, 0)),
    ("H100-MEGA", H100, (9, 0)),
    ("H100-MEGA-80GB", H100, (9, 0)),
    ("H100 SXM", H100, (9, 0)),
    ("H100_NVLINK_80GB", H100, (9, 0)),
    ("NvidiaH10080Gb", H100, (9, 0)),
    ("NVIDIA-H100", H100, (9, 0)),
    ("NVIDIA_H100", H100, (9, 0)),
    ("a3-highgpu-8g", H100, (9, 0)),
    ("a3-highgpu-1g-nolssd", H100, (9, 0)),
    ("a3-megagpu-8g", H100, (9, 0)),
    ("a3-edgegpu-8g-nolssd", H100, (9, 0)),
    ("p5.48xlarge", H100, (9, 0)),
    ("p5.4xlarge", H100, (9, 0)),
    ("Standard_ND96isr_H100_v5", H100, (9, 0)),
    ("BM.GPU.H100.8", H100, (9, 0)),
    ("gpu_8x_h100_sxm5", H100, (9, 0)),
    ("H100 PCIe", H100_PCIE, (9, 0)),
    ("NVIDIA-H100-PCIe", H100_PCIE, (9, 0)),
    ("H100-PCIE-80GB", H100_PCIE, (9, 0)),
    ("NVIDIA-H100-PCIE-80GB", H100_PCIE, (9, 0)),
    ("gpu_1x_h100_pcie", H100_PCIE, (9, 0)),
    ("H100 NVL", H100_NVL, (9, 0)),
    ("NVIDIA-H100-NVL", H100_NVL, (9, 0)),
    ("NVIDIA-H100-NVL-MIG-1g.12gb", H100_NVL, (9, 0)),
    ("H100-NVL", H100_NVL, (9, 0)),
    ("Standard_NC40ads_H100_v5", H100_NVL, (9, 0)),
    ("Standard_NCC40ads_H100_v5", H100_NVL, (9, 0)),
    ("Standard_NC20ads_H100_v5", H100_NVL, (9, 0)),  # an NC H100 size not listed: by series + token
    ("H200", H200, (9, 0)),
    ("NVIDIA H200", H200, (9, 0)),
    ("NVIDIA-H200-SXM", H200, (9, 0)),
    ("nvidia-h200-141gb", H200, (9, 0)),
    ("NvidiaH200141Gb", H200, (9, 0)),
    ("a3-ultragpu-8g", H200, (9, 0)),
    ("p5e.48xlarge", H200, (9, 0)),
    ("p5en.48xlarge", H200, (9, 0)),
    ("Standard_ND96isr_H200_v5", H200, (9, 0)),
    ("BM.GPU.H200.8", H200, (9, 0)),
    ("H200 NVL", "NVIDIA H200 NVL", (9, 0)),
    ("NVIDIA-H200-NVL", "NVIDIA H200 NVL", (9, 0)),
    ("GH200", "NVIDIA GH200", (9, 0)),
    ("NVIDIA GH200 480GB", "NVIDIA GH200", (9, 0)),
    ("NVIDIA GH200 144G HBM3e", "NVIDIA GH200", (9, 0)),
    ("NVIDIA-GH200-480GB", "NVIDIA GH200", (9, 0)),
    ("Grace Hopper", "NVIDIA GH200", (9, 0)),
    ("H800", "NVIDIA H800", (9, 0)),
    ("NVIDIA-H800", "NVIDIA H800", (9, 0)),
    ("H20", "NVIDIA H20", (9, 0)),
    ("NVIDIA-H20", "NVIDIA H20", (9, 0)),
    ("NVIDIA_H20", "NVIDIA H20", (9, 0)),
    # --- Ampere, Ada, Turing, Volta ---
    ("A100", A100_40, (8, 0)),
    ("A100-40GB", A100_40, (8, 0)),
    ("A100-40G", A100_40, (8, 0)),
    ("NVIDIA A100-SXM4-40GB", A100_40, (8, 0)),
    ("NVIDIA-A100-PCIE-40GB", A100_40, (8, 0)),
    ("A100-SXM4-40GB-MIG-1g.5gb-SHARED", A100_40, (8, 0)),
    ("nvidia-tesla-a100", A100_40, (8, 0)),
    ("a2-highgpu-8g", A100_40, (8, 0)),
    ("a2-megagpu-16g", A100_40, (8, 0)),
    ("p4d.24xlarge", A100_40, (8, 0)),
    ("Standard_ND96asr_v4", A100_40, (8, 0)),
    ("BM.GPU4.8", A100_40, (8, 0)),
    ("BM.GPU.B4.8", A100_40, (8, 0)),  # "B4" is not Blackwell
    ("gpu_8x_a100", A100_40, (8, 0)),
    ("A100-80GB", A100_80, (8, 0)),
    ("A100 80GB", A100_80, (8, 0)),
    ("A100-80G", A100_80, (8, 0)),
    ("NVIDIA A100-SXM4-80GB", A100_80, (8, 0)),
    ("NVIDIA A100 80GB PCIe", A100_80, (8, 0)),
    ("NVIDIA-A100-80GB-PCIe", A100_80, (8, 0)),
    ("nvidia-a100-80gb", A100_80, (8, 0)),
    ("A100_NVLINK_80GB", A100_80, (8, 0)),
    ("AMPERE_80", A100_80, (8, 0)),
    ("a2-ultragpu-8g", A100_80, (8, 0)),
    ("p4de.24xlarge", A100_80, (8, 0)),
    ("Standard_ND96amsr_A100_v4", A100_80, (8, 0)),
    ("Standard_NC24ads_A100_v4", A100_80, (8, 0)),
    ("BM.GPU.A100-v2.8", A100_80, (8, 0)),
    ("VM.GPU.A100.80G.1", A100_80, (8, 0)),
    ("gpu_8x_a100_80gb_sxm4", A100_80, (8, 0)),
    ("A800", "NVIDIA A800", (8, 0)),
    ("NVIDIA-A800-SXM4-80GB", "NVIDIA A800", (8, 0)),
    ("A10G", "NVIDIA A10G", (8, 6)),
    ("NVIDIA-A10G", "NVIDIA A10G", (8, 6)),
    ("NVIDIA-A10G-SHARED", "NVIDIA A10G", (8, 6)),
    ("g5.48xlarge", "NVIDIA A10G", (8, 6)),
    ("A10", "NVIDIA A10", (8, 6)),
    ("Standard_NV36ads_A10_v5", "NVIDIA A10", (8, 6)),
    ("VM.GPU.A10.1", "NVIDIA A10", (8, 6)),
    ("gpu_1x_a10", "NVIDIA A10", (8, 6)),
    ("NVIDIA A30", "NVIDIA A30", (8, 0)),
    ("NVIDIA-A40", "NVIDIA A40", (8, 6)),
    ("L4", "NVIDIA L4", (8, 9)),
    ("NVIDIA-L4", "NVIDIA L4", (8, 9)),
    ("nvidia-l4", "NVIDIA L4", (8, 9)),
    ("g2-standard-48", "NVIDIA L4", (8, 9)),
    ("g6.xlarge", "NVIDIA L4", (8, 9)),
    ("gr6f.4xlarge", "NVIDIA L4", (8, 9)),
    ("L40S", "NVIDIA L40S", (8, 9)),
    ("NVIDIA L40S", "NVIDIA L40S", (8, 9)),
    ("g6e.48xlarge", "NVIDIA L40S", (8, 9)),
    ("BM.GPU.L40S-NC.4", "NVIDIA L40S", (8, 9)),
    ("L40", "NVIDIA L40", (8, 9)),
    ("NVIDIA RTX 6000 Ada Generation", "NVIDIA RTX 6000 Ada Generation", (8, 9)),
    ("NVIDIA-RTX-6000-Ada-Generation-SHARED", "NVIDIA RTX 6000 Ada Generation", (8, 9)),
    ("RTX6000-Ada", "NVIDIA RTX 6000 Ada Generation", (8, 9)),
    ("RTX4000-Ada", "NVIDIA RTX 4000 Ada Generation", (8, 9)),
    ("NVIDIA GeForce RTX 4090", "NVIDIA GeForce RTX 4090", (8, 9)),
    ("NVIDIA-GeForce-RTX-4090", "NVIDIA GeForce RTX 4090", (8, 9)),
    ("RTX4090", "NVIDIA GeForce RTX 4090", (8, 9)),
    ("Quadro RTX 6000", "NVIDIA Quadro RTX 6000", (7, 5)),
    ("gpu_1x_rtx6000", "NVIDIA Quadro RTX 6000", (7, 5)),
    ("T4", "NVIDIA T4", (7, 5)),
    ("Tesla T4", "NVIDIA T4", (7, 5)),
    ("Tesla-T4", "NVIDIA T4", (7, 5)),
    ("TESLA-T4", "NVIDIA T4", (7, 5)),
    ("tesla_t4", "NVIDIA T4", (7, 5)),
    ("nvidia-tesla-t4", "NVIDIA T4", (7, 5)),
    ("g4dn.xlarge", "NVIDIA T4", (7, 5)),
    ("Standard_NC4as_T4_v3", "NVIDIA T4", (7, 5)),
    ("T4g", "NVIDIA T4G", (7, 5)),
    ("g5g.xlarge", "NVIDIA T4G", (7, 5)),
    ("V100", "NVIDIA V100", (7, 0)),
    ("V100-32GB", "NVIDIA V100", (7, 0)),
    ("Tesla V100-SXM2-16GB", "NVIDIA V100", (7, 0)),
    ("nvidia-tesla-v100", "NVIDIA V100", (7, 0)),
    ("p3dn.24xlarge", "NVIDIA V100", (7, 0)),
    ("p3.8xlarge", "NVIDIA V100", (7, 0)),
    ("Standard_ND40rs_v2", "NVIDIA V100", (7, 0)),
    ("Standard_NC6s_v3", "NVIDIA V100", (7, 0)),
    ("BM.GPU3.8", "NVIDIA V100", (7, 0)),
    ("VM.GPU3.1", "NVIDIA V100", (7, 0)),
    # --- AMD (ROCm, no CUDA compute capability) ---
    ("MI300X", MI300X, None),
    ("AMD Instinct MI300X OAM", MI300X, None),
    ("AMD-Instinct-MI300X-OAM", MI300X, None),
    ("AMD_Instinct_MI300X_OAM", MI300X, None),
    ("AMD-Instinct-MI300X-HF", MI300X, None),
    ("AmdInstinctMi300XOam", MI300X, None),
    ("Standard_ND96isr_MI300X_v5", MI300X, None),
    ("BM.GPU.MI300X.8", MI300X, None),
    ("MI325X", "AMD Instinct MI325X", None),
    ("AMD-Instinct-MI325X-OAM", "AMD Instinct MI325X", None),
    ("MI355X", "AMD Instinct MI355X", None),
    ("BM.GPU.MI355X-v1.8", "AMD Instinct MI355X", None),
    ("MI350X", "AMD Instinct MI350X", None),
    ("g4ad.xlarge", "AMD Radeon Pro V520", None),
]


@pytest.mark.parametrize(("name", "canonical", "cc"), KNOWN)
def test_lookup(name, canonical, cc):
    gpu = lookup(name)
    assert gpu is not None, why_unknown(name)
    assert (gpu.canonical, gpu.cc) == (canonical, cc)


@pytest.mark.parametrize("name", ["  H100  ", "h100", "H100", "NVIDIA H100", "nvidia h100", "Nvidia-H100"])
def test_lookup_is_case_and_space_insensitive(name):
    assert lookup(name) == lookup("H100")


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["canonical"] for e in ENTRIES])
def test_every_alias_resolves_to_its_own_entry(entry):
    for alias in [entry["canonical"], *entry["aliases"]]:
        gpu = lookup(alias)
        assert gpu is not None and gpu.canonical == entry["canonical"], alias


def test_no_alias_collides_across_entries_after_normalisation():
    owners = defaultdict(set)
    for entry in ENTRIES:
        for alias in [entry["canonical"], *entry["aliases"]]:
            owners[normalise(alias)].add(entry["canonical"])
    assert "" not in owners
    collisions = {key: sorted(v) for key, v in owners.items() if len(v) > 1}
    assert collisions == {}
    not_gpus = {normalise(n) for group in DATA["not_gpus"] for n in group["names"]}
    assert not_gpus & set(owners) == set()


def test_canonical_names_are_unique():
    names = [e["canonical"] for e in ENTRIES]
    assert len(names) == len(set(names))


def test_entries_have_the_documented_shape():
    sources = DATA["provenance"]["sources"]
    for e in ENTRIES:
        assert set(e) == {"canonical", "vendor", "cc", "arch", "verified", "note", "sources", "memory", "aliases"}, e
        assert set(e["memory"]) == {"mib", "kind", "source"} and e["memory"]["kind"] in ("reported", "nominal")
        assert e["vendor"] in {"nvidia", "amd"}
        assert (e["cc"] is None) == (e["vendor"] == "amd"), e["canonical"]
        if e["cc"] is not None:
            assert len(e["cc"]) == 2 and all(isinstance(n, int) for n in e["cc"])
        assert isinstance(e["verified"], bool)
        assert e["note"] is None or e["note"]
        assert e["sources"] and all(s in sources for s in e["sources"]), e["canonical"]
        assert len(e["aliases"]) == len(set(e["aliases"])), e["canonical"]


def test_provenance():
    prov = DATA["provenance"]
    assert "gpu-names.md" in prov["reference"]
    assert "https://developer.nvidia.com/cuda-gpus" in prov["compute_capability"]
    assert prov["compiled"]
    assert prov["sources"]["NV-CC"] == "https://developer.nvidia.com/cuda-gpus"
    for group in DATA["not_gpus"]:
        assert all(s in prov["sources"] for s in group["sources"])


def test_instance_families_name_catalog_gpus():
    canonicals = {e["canonical"] for e in ENTRIES}
    for table in DATA["instance_families"].values():
        assert set(table.values()) <= canonicals


def test_all_gpus_matches_the_data_file():
    assert [g.canonical for g in all_gpus()] == [e["canonical"] for e in ENTRIES]
    assert all(isinstance(g, Gpu) for g in all_gpus())


@pytest.mark.parametrize(
    ("canonical", "verified"),
    [
        ("NVIDIA B200", True),
        ("NVIDIA B300", True),
        ("NVIDIA Jetson Thor", True),
        ("NVIDIA H100 SXM5 80GB", True),
        ("NVIDIA B100", False),
        ("NVIDIA Rubin", False),
        ("NVIDIA H800", False),
        ("NVIDIA H20", False),
        ("NVIDIA A800", False),
        ("NVIDIA A10G", False),
        ("NVIDIA L20", False),
    ],
)
def test_verified(canonical, verified):
    assert lookup(canonical).verified is verified


def test_notes():
    assert "10.1" in lookup("Thor").note and "13" in lookup("Thor").note
    assert "preview" in lookup("Rubin").note
    assert "B200+" in lookup("B200+").note
    assert "B4.8" in lookup("BM.GPU.B4.8").note


UNKNOWN = [
    ("Blackwell", ["names a GPU family", "not one GPU", "SM100", "SM110", "SM120", "B200"]),
    ("blackwell", ["names a GPU family"]),
    ("NVIDIA Blackwell", ["names a GPU family"]),
    ("Hopper", ["names a GPU family", "not one GPU"]),
    ("ada-lovelace", ["names a GPU family"]),
    ("Grace Blackwell", ["names a GPU family"]),
    ("RTX 6000", ["ambiguous", "Quadro RTX 6000", "RTX 6000 Ada", "RTX PRO 6000 Blackwell"]),
    ("RTX6000", ["ambiguous"]),
    ("NVIDIA RTX 6000", ["ambiguous"]),
    ("B580", ["Intel Arc"]),
    ("B570", ["Intel Arc"]),
    ("Intel Arc B580", ["Intel Arc"]),
    ("1g.10gb", ["MIG profile '1g.10gb' is a slice size, not a GPU"]),
    ("mig-1g.23gb", ["MIG profile '1g.23gb' is a slice size, not a GPU"]),
    ("nvidia.com/mig-3g.40gb", ["MIG profile '3g.40gb'"]),
    ("", ["empty"]),
    ("   ", ["empty"]),
    ("GPU", ["does not name a GPU model"]),
    ("gpu:8", ["does not name a GPU model"]),
    ("nvidia.com/gpu", ["does not name a GPU model"]),
    ("nvidia", ["vendor or brand"]),
    ("NVIDIA", ["vendor or brand"]),
    ("Tesla", ["vendor or brand"]),
    ("RTX", ["Ray"]),
    ("G", ["Ray"]),
    ("T", ["Ray", "Thor"]),
    ("ADA_80_PRO", ["Runpod GPU pool"]),
    ("GB100", ["die"]),
    ("mi30x", ["image-tag"]),
    ("sm_100", ["compute-capability target (10.0)", "not a GPU"]),
    ("SM90", ["compute-capability target (9.0)"]),
    ("sm_121a", ["compute-capability target (12.1)"]),
    ("gfx942", ["AMD GPU ISA"]),
    ("RTX Spark", ["not verified"]),
    ("DGX Station", ["not verified"]),
    ("DRIVE AGX Thor", ["not verified"]),
    ("VM.GPU2.1", ["not in the GPU catalog (linter/gpus/catalog.json)"]),
    ("n1-standard-8", ["not in the GPU catalog"]),
    ("p5x.48xlarge", ["not in the GPU catalog"]),
    ("Radeon RX 7900 XTX", ["not in the GPU catalog"]),
    ("H10", ["not in the GPU catalog", "did you mean 'H100' (NVIDIA H100 SXM5 80GB)?"]),
    ("GB2000", ["did you mean 'GB200' (NVIDIA GB200)?"]),
    ("xyzzy", ["not in the GPU catalog (linter/gpus/catalog.json)"]),
]


@pytest.mark.parametrize(("name", "wording"), UNKNOWN)
def test_unknown(name, wording):
    assert lookup(name) is None
    reason = why_unknown(name)
    for words in wording:
        assert words in reason
    assert "\n" not in reason


def test_unknown_without_close_match_has_no_suggestion():
    assert "did you mean" not in why_unknown("xyzzy")


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("GB10", "GB200"),  # GB10 is 12.1, not a GB200
        ("H20", "H200"),  # H20 is a prefix of H200, not the same GPU
        ("H100 NVL", "H100"),  # NVL is a GPU of its own, not a tolerated suffix
        ("p5en.48xlarge", "p5.48xlarge"),  # p5en is not p5
        ("BM.GPU.B4.8", "BM.GPU.B200.8"),  # B4 is an A100 shape
        ("GH200", "GB200"),  # Grace Hopper is Hopper
        ("T4", "T4G"),
        ("L4", "L40"),
        ("A10", "A100"),
    ],
)
def test_traps_are_different_gpus(a, b):
    assert lookup(a) is not None and lookup(b) is not None
    assert lookup(a) != lookup(b)


@pytest.mark.parametrize(
    ("name", "sm"),
    [
        ("H100", "SM90"),
        ("B200", "SM100"),
        ("GB200", "SM100"),
        ("B300", "SM103"),
        ("GB300", "SM103"),
        ("Rubin", "SM107"),
        ("Thor", "SM110"),
        ("RTX PRO 6000", "SM120"),
        ("RTX 5090", "SM120"),
        ("GB10", "SM121"),
        ("A100", "SM80"),
        ("A10G", "SM86"),
        ("L40S", "SM89"),
        ("T4", "SM75"),
        ("V100", "SM70"),
        ("MI300X", "ROCm"),
        ("MI355X", "ROCm"),
    ],
)
def test_sm(name, sm):
    assert lookup(name).sm == sm


def test_is_cuda():
    assert lookup("H100").is_cuda
    assert lookup("Thor").is_cuda
    assert not lookup("MI300X").is_cuda
    assert lookup("MI300X").vendor == "amd" and lookup("MI300X").cc is None
    assert all(g.is_cuda == (g.vendor == "nvidia") for g in all_gpus())


def test_sm10x_or_sm11x_set():
    """The GPUs whose CC major is 10 or 11 — the set SGLang's SM100/SM110 checks accept."""
    yes = {g.canonical for g in all_gpus() if g.cc is not None and g.cc[0] in (10, 11)}
    assert yes == {B200, GB200, B300, GB300, "NVIDIA B100", THOR, RUBIN}


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("NVIDIA-H100-80GB-HBM3", "h10080gbhbm3"),
        ("nvidia_h100_80gb_hbm3", "h10080gbhbm3"),
        ("NVIDIA H100 80GB HBM3", "h10080gbhbm3"),
        ("NVIDIA-A10G-SHARED", "a10g"),
        ("NVIDIA-H100-NVL-MIG-1g.12gb", "h100nvl"),
        ("nvidia_b200_3g.90gb", "b200"),
        ("gpu:h100:8", "h100"),
        ("H100:8", "h100"),
        ("Tesla T4", "t4"),
        ("nvidia-tesla-t4", "t4"),
        ("NVIDIA GeForce RTX 5090", "rtx5090"),
        ("AMD Instinct MI300X OAM", "mi300xoam"),
        ("B200+", "b200"),
        ("NVIDIA", ""),
        ("", ""),
    ],
)
def test_normalise(name, key):
    assert normalise(name) == key


@pytest.mark.parametrize("func", [lookup, why_unknown, normalise])
def test_non_str_is_a_type_error(func):
    with pytest.raises(TypeError):
        func(None)


def test_why_unknown_of_a_known_name_is_a_value_error():
    with pytest.raises(ValueError, match="NVIDIA H100 SXM5 80GB"):
        why_unknown("H100")


def test_catalog_is_loaded_once():
    assert catalog._catalog() is catalog._catalog()


@pytest.mark.parametrize(
    ("name", "canonical"),
    [
        # Spellings not listed in catalog.json, read by the instance-type and Lambda rules.
        ("BM.GPU.H200-v2.8", H200),
        ("gpu_2x_h100_sxm5", H100),
        ("gpu_4x_a100_80gb_sxm4", A100_80),
        ("gpu_2x_gh200", "NVIDIA GH200"),
        ("p6-b200.*", B200),
        ("g7e.*", RTXPRO6000),
    ],
)
def test_derived_spellings(name, canonical):
    assert lookup(name).canonical == canonical


@pytest.mark.parametrize("name", ["Standard_NC24rs_v3", "Standard_NC6_v2", "BM.GPU.X9.8", "gpu_2x_xyz"])
def test_instance_types_without_a_known_gpu(name):
    assert lookup(name) is None
    assert "not in the GPU catalog" in why_unknown(name)


def _entry(canonical, *aliases):
    return {
        "canonical": canonical,
        "vendor": "nvidia",
        "cc": [9, 0],
        "arch": "Hopper",
        "verified": True,
        "note": None,
        "sources": [],
        "aliases": list(aliases),
    }


def _catalog_data(gpus, not_gpus=(), families=None):
    return {
        "provenance": {},
        "gpus": list(gpus),
        "not_gpus": list(not_gpus),
        "instance_families": families or {"aws": {}, "gcp": {}, "azure": {}, "oci": {}},
    }


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (_catalog_data([_entry("X"), _entry("X")]), "'X' is listed twice"),
        (_catalog_data([_entry("X", "H-100"), _entry("Y", "h_100")]), "which is already 'X'"),
        (_catalog_data([_entry("X", "NVIDIA")]), "normalises to ''"),
        (
            _catalog_data([_entry("X", "H100")], [{"names": ["h100"], "reason": "", "sources": []}]),
            "both an alias of 'X' and not a GPU",
        ),
        (_catalog_data([_entry("X")], families={"aws": {"p5": "Y"}}), "target 'Y' is not a catalog GPU"),
    ],
)
def test_broken_catalog_is_refused(data, message):
    with pytest.raises(ValueError, match=message):
        catalog._build(data)
