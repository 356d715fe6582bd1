// PluginHeap.cpp - the plugin's own heap behind C++ operator new and delete.
//
// Every std::string, vector and map node the plugin and the engine make
// inside cc1 came from cc1's malloc heap, between GCC's own allocations:
// tens of thousands of small blocks per file, whose bookkeeping and
// fragmentation GCC's later mallocs paid for too (callgrind, unit029.c of
// bench/compile-time at -O2: libc's malloc functions ran 0.8 M instructions
// more with the plugin loaded, 1.7 M when the file was compiled by a longer
// path; with this heap -0.2 M and +0.7 M). Here the plugin's blocks up to
// 4 KiB come from mapped chunks of its own, one free list per 16-byte size
// class: a block is taken or returned in a few instructions and cc1's heap
// never sees them.
//
// Only the plugin's own code calls these: the version script (Exports.map)
// keeps them local, so cc1 and its other libraries keep their allocator.
// cc1 runs one pass at a time on one thread, so there is no locking. The
// aligned forms (std::align_val_t) stay libstdc++'s. Not built with the
// sanitizers (CMakeLists.txt), which replace operator new themselves.
#include <cstddef>
#include <cstdlib>
#include <new>

#include <sys/mman.h>

namespace {

constexpr std::size_t Granule = 16;    // __STDCPP_DEFAULT_NEW_ALIGNMENT__
constexpr std::size_t MaxSmall = 4096; // larger blocks come from malloc
constexpr std::size_t Classes = MaxSmall / Granule;
constexpr std::size_t ChunkBytes = 1 << 20;

/// Before each block: its size class in granules, 0 for a malloc'd block.
struct alignas(Granule) Header {
  std::size_t Class;
};

struct FreeBlock {
  FreeBlock *Next;
};

// Zero-initialised (no constructor runs): the plugin's static constructors
// allocate before any of this file's could.
FreeBlock *FreeLists[Classes + 1];
char *ChunkNext;
char *ChunkEnd;

void *allocate(std::size_t Size) noexcept {
  const std::size_t Class = Size ? (Size + Granule - 1) / Granule : 1;
  if (Class > Classes) {
    auto *H = static_cast<Header *>(std::malloc(sizeof(Header) + Size));
    if (!H)
      return nullptr;
    H->Class = 0;
    return H + 1;
  }
  if (FreeBlock *B = FreeLists[Class]) {
    FreeLists[Class] = B->Next;
    return B;
  }
  const std::size_t Bytes = sizeof(Header) + Class * Granule;
  if (static_cast<std::size_t>(ChunkEnd - ChunkNext) < Bytes) {
    // Mapped, never from malloc, so the chunks never sit in cc1's heap
    // (malloc maps large requests only below its sliding threshold). The
    // rest of the old chunk is left unused.
    void *Chunk = mmap(nullptr, ChunkBytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (Chunk == MAP_FAILED)
      return nullptr;
    ChunkNext = static_cast<char *>(Chunk);
    ChunkEnd = ChunkNext + ChunkBytes;
  }
  auto *H = reinterpret_cast<Header *>(ChunkNext);
  ChunkNext += Bytes;
  H->Class = Class;
  return H + 1;
}

void deallocate(void *P) noexcept {
  if (!P)
    return;
  Header *H = static_cast<Header *>(P) - 1;
  if (!H->Class) {
    std::free(H);
    return;
  }
  auto *B = static_cast<FreeBlock *>(P);
  B->Next = FreeLists[H->Class];
  FreeLists[H->Class] = B;
}

void *allocateOrThrow(std::size_t Size) {
  if (void *P = allocate(Size))
    return P;
  throw std::bad_alloc();
}

} // namespace

void *operator new(std::size_t Size) { return allocateOrThrow(Size); }
void *operator new[](std::size_t Size) { return allocateOrThrow(Size); }
void *operator new(std::size_t Size, const std::nothrow_t &) noexcept {
  return allocate(Size);
}
void *operator new[](std::size_t Size, const std::nothrow_t &) noexcept {
  return allocate(Size);
}
void operator delete(void *P) noexcept { deallocate(P); }
void operator delete[](void *P) noexcept { deallocate(P); }
void operator delete(void *P, std::size_t) noexcept { deallocate(P); }
void operator delete[](void *P, std::size_t) noexcept { deallocate(P); }
void operator delete(void *P, const std::nothrow_t &) noexcept {
  deallocate(P);
}
void operator delete[](void *P, const std::nothrow_t &) noexcept {
  deallocate(P);
}
