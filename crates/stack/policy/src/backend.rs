//! Device (backend) selection.
//!
//! In burn 0.22 tensors and modules are not generic over a backend type: the backend, and
//! whether autodiff records operations, are properties of the [`Device`] a tensor lives on.
//! So instead of a `type CpuBackend = ...` alias this module provides device constructors.
//!
//! The default CPU backend is **Flex** (burn's pure-Rust CPU backend), built with its SIMD and
//! rayon features and gemm's `x86-v4` AVX-512 kernels (chosen at run time, only on CPUs with
//! AVX-512F). Measured with `examples/backend_bench.rs` on the project's network
//! (192 -> 256 -> 256 -> 48 logits + 1 value, shared trunk) on the 2-core dev machine, one
//! PPO update (forward + backward + clip + Adam) on a 4096 minibatch took: Flex + x86-v4 +
//! mimalloc ~37 ms; Flex + x86-v4, system allocator 50-73 ms; Flex without x86-v4 (mimalloc)
//! 55-83 ms; NdArray 87-126 ms (noisy: the machine was shared). Batch-64 inference: Flex ~150 us.
//! Separate actor/critic trunks cost about 1.7x the shared-trunk time.
//!
//! Always construct devices through these functions (or burn's explicit factories):
//! `Device::default()` picks the *first enabled* backend in burn's order (CUDA, ..., wgpu, ...,
//! Flex, ..., NdArray), so merely enabling the `wgpu` feature would silently move
//! `Device::default()` to the GPU.

use burn::tensor::Device;

/// Which backend a device runs on; lets binaries pick one from a command-line flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BackendKind {
    /// burn's Flex CPU backend (default).
    Flex,
    /// burn's NdArray CPU backend (deprecated upstream in 0.22; comparison only).
    #[cfg(feature = "ndarray")]
    NdArray,
    /// wgpu GPU backend (Vulkan/Metal/DX12/WebGPU), `wgpu` feature.
    #[cfg(feature = "wgpu")]
    Wgpu,
    /// CUDA GPU backend, `cuda` feature.
    #[cfg(feature = "cuda")]
    Cuda,
}

impl BackendKind {
    /// Every backend compiled into this build, default first.
    pub fn available() -> Vec<BackendKind> {
        vec![
            BackendKind::Flex,
            #[cfg(feature = "ndarray")]
            BackendKind::NdArray,
            #[cfg(feature = "wgpu")]
            BackendKind::Wgpu,
            #[cfg(feature = "cuda")]
            BackendKind::Cuda,
        ]
    }

    /// Short lowercase name (`flex`, `ndarray`, `wgpu`, `cuda`).
    pub fn name(self) -> &'static str {
        match self {
            BackendKind::Flex => "flex",
            #[cfg(feature = "ndarray")]
            BackendKind::NdArray => "ndarray",
            #[cfg(feature = "wgpu")]
            BackendKind::Wgpu => "wgpu",
            #[cfg(feature = "cuda")]
            BackendKind::Cuda => "cuda",
        }
    }

    /// Parses [`BackendKind::name`]; `None` if unknown or not compiled in.
    pub fn from_name(name: &str) -> Option<BackendKind> {
        Self::available().into_iter().find(|b| b.name().eq_ignore_ascii_case(name))
    }

    /// A plain (inference) device of this backend. GPU devices are created lazily by burn;
    /// the first tensor operation fails if no GPU is present.
    pub fn device(self) -> Device {
        match self {
            BackendKind::Flex => Device::flex(),
            #[cfg(feature = "ndarray")]
            #[allow(deprecated)]
            BackendKind::NdArray => Device::ndarray(),
            #[cfg(feature = "wgpu")]
            BackendKind::Wgpu => Device::wgpu(burn::tensor::DeviceKind::DefaultDevice),
            #[cfg(feature = "cuda")]
            BackendKind::Cuda => Device::cuda(0usize),
        }
    }

    /// The same device with autodiff enabled, for training.
    pub fn training_device(self) -> Device {
        self.device().autodiff()
    }
}

/// The default CPU inference device (Flex).
pub fn cpu_device() -> Device {
    BackendKind::Flex.device()
}

/// The default CPU training device (Flex with autodiff).
pub fn cpu_training_device() -> Device {
    BackendKind::Flex.training_device()
}
