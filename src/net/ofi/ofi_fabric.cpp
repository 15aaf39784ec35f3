#include "ofi_fabric.hpp"

#include <fmt/format.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_errno.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "courier/core/error.hpp"
#include "courier/net/mpi_check.hpp"
#include "ofi_check.hpp"
#include "ofi_library.hpp"

namespace courier::net::detail {
namespace {

// The memory registration modes the device knows how to honour.
constexpr std::uint64_t supported_mr_modes =
    FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY | FI_MR_ENDPOINT;

std::string requested_provider(const OfiDeviceOptions& options) {
  if (!options.provider.empty()) return options.provider;
  const char* from_env = std::getenv("FI_PROVIDER");
  return from_env ? from_env : "";
}

// The providers libfabric offers for `caps`, first match first; nullptr when there is none.
fi_info* query(const std::string& provider, std::uint64_t caps) {
  const OfiLibrary& libfabric = ofi_library();
  fi_info* hints = libfabric.dupinfo(nullptr);  // fi_allocinfo
  if (!hints) throw Error("ofi device: fi_allocinfo failed (out of memory)");
  hints->ep_attr->type = FI_EP_RDM;
  hints->caps = caps;
  hints->mode = FI_CONTEXT | FI_CONTEXT2;  // every operation gets its own fi_context2
  hints->domain_attr->mr_mode = static_cast<int>(supported_mr_modes);
  hints->domain_attr->threading = FI_THREAD_DOMAIN;  // one thread drives a device at a time
  if (!provider.empty()) hints->fabric_attr->prov_name = strdup(provider.c_str());
  fi_info* found = nullptr;
  int code = libfabric.getinfo(FI_VERSION(1, 9), nullptr, nullptr, 0, hints, &found);
  libfabric.freeinfo(hints);  // frees prov_name too
  if (code == -FI_ENODATA) return nullptr;
  ofi_check(code, "fi_getinfo");
  return found;
}

// Remote CQ data carries the key of the region a write filled, so it must hold a key.
bool usable_for_rma(const fi_info* info) { return info->domain_attr->cq_data_size >= 4; }

}  // namespace

Registration& Registration::operator=(Registration&& other) noexcept {
  if (this != &other) {
    reset();
    mr_ = other.mr_;
    other.mr_ = nullptr;
  }
  return *this;
}

void Registration::reset() noexcept {
  if (mr_) fi_close(&mr_->fid);
  mr_ = nullptr;
}

fi_info* OfiFabric::choose(const OfiDeviceOptions& options) {
  const OfiLibrary& libfabric = ofi_library();
  const std::string provider = requested_provider(options);
  const std::string which = provider.empty() ? "any provider" : "provider '" + provider + "'";
  if (options.puts != OfiPuts::tagged) {
    fi_info* all = query(provider, FI_TAGGED | FI_RMA);
    for (fi_info* info = all; info; info = info->next) {
      if (!usable_for_rma(info)) continue;
      fi_info* chosen = libfabric.dupinfo(info);
      libfabric.freeinfo(all);
      rma_ = true;
      return chosen;
    }
    if (all) libfabric.freeinfo(all);
    if (options.puts == OfiPuts::rma) {
      throw Error(fmt::format("ofi device: {} offers no RDM endpoint with RMA and remote CQ data; "
                              "choose another with FI_PROVIDER (`fi_info -l` lists them) or use "
                              "OfiPuts::tagged",
                              which));
    }
  }
  fi_info* all = query(provider, FI_TAGGED);
  if (!all) {
    throw Error(fmt::format("ofi device: {} offers no RDM endpoint with tagged messages here; "
                            "set FI_PROVIDER (or OfiDeviceOptions::provider) to one that "
                            "`fi_info -l` lists, e.g. FI_PROVIDER=shm or FI_PROVIDER=tcp",
                            which));
  }
  fi_info* chosen = libfabric.dupinfo(all);
  libfabric.freeinfo(all);
  return chosen;
}

OfiFabric::OfiFabric(const OfiDeviceOptions& options, MPI_Comm comm, std::size_t entries) {
  info_ = choose(options);
  try {
    ofi_check(ofi_library().fabric(info_->fabric_attr, &fabric_, nullptr), "fi_fabric");
    ofi_check(fi_domain(fabric_, info_, &domain_, nullptr), "fi_domain");
    fi_cq_attr cq_attr{};
    cq_attr.format = FI_CQ_FORMAT_TAGGED;
    cq_attr.size = entries;
    cq_attr.wait_obj = FI_WAIT_NONE;
    ofi_check(fi_cq_open(domain_, &cq_attr, &completions_, nullptr), "fi_cq_open");
    int ranks = 0;
    mpi_check(MPI_Comm_size(comm, &ranks), "MPI_Comm_size");
    fi_av_attr av_attr{};
    av_attr.type = FI_AV_TABLE;
    av_attr.count = static_cast<std::size_t>(ranks);
    ofi_check(fi_av_open(domain_, &av_attr, &addresses_, nullptr), "fi_av_open");
    ofi_check(fi_endpoint(domain_, info_, &endpoint_, nullptr), "fi_endpoint");
    ofi_check(fi_ep_bind(endpoint_, &addresses_->fid, 0), "fi_ep_bind(av)");
    ofi_check(fi_ep_bind(endpoint_, &completions_->fid, FI_TRANSMIT | FI_RECV), "fi_ep_bind(cq)");
    ofi_check(fi_enable(endpoint_), "fi_enable");
    exchange_addresses(comm);
  } catch (...) {
    close();
    throw;
  }
}

OfiFabric::~OfiFabric() { close(); }

void OfiFabric::close() noexcept {
  if (endpoint_) fi_close(&endpoint_->fid);
  if (addresses_) fi_close(&addresses_->fid);
  if (completions_) fi_close(&completions_->fid);
  if (domain_) fi_close(&domain_->fid);
  if (fabric_) fi_close(&fabric_->fid);
  if (info_) ofi_library().freeinfo(info_);
  endpoint_ = nullptr;
  addresses_ = nullptr;
  completions_ = nullptr;
  domain_ = nullptr;
  fabric_ = nullptr;
  info_ = nullptr;
}

// Every rank publishes its endpoint's name; all ranks insert all names in rank order.
void OfiFabric::exchange_addresses(MPI_Comm comm) {
  std::size_t length = 0;
  int code = fi_getname(&endpoint_->fid, nullptr, &length);
  if (code != -FI_ETOOSMALL) ofi_check(code, "fi_getname (size)");
  std::vector<char> mine(length);
  ofi_check(fi_getname(&endpoint_->fid, mine.data(), &length), "fi_getname");
  int ranks = 0;
  mpi_check(MPI_Comm_size(comm, &ranks), "MPI_Comm_size");
  unsigned long mine_length = length;
  unsigned long longest = 0;
  unsigned long shortest = 0;
  mpi_check(MPI_Allreduce(&mine_length, &longest, 1, MPI_UNSIGNED_LONG, MPI_MAX, comm),
            "MPI_Allreduce");
  mpi_check(MPI_Allreduce(&mine_length, &shortest, 1, MPI_UNSIGNED_LONG, MPI_MIN, comm),
            "MPI_Allreduce");
  if (longest != shortest) {
    throw Error("ofi device: the ranks chose providers with different address formats; set "
                "FI_PROVIDER to the same provider on every rank");
  }
  std::vector<char> all(length * static_cast<std::size_t>(ranks));
  mpi_check(MPI_Allgather(mine.data(), static_cast<int>(length), MPI_BYTE, all.data(),
                          static_cast<int>(length), MPI_BYTE, comm),
            "MPI_Allgather (endpoint names)");
  peers_.assign(static_cast<std::size_t>(ranks), FI_ADDR_NOTAVAIL);
  for (int r = 0; r < ranks; ++r) {
    int inserted = fi_av_insert(addresses_, all.data() + length * static_cast<std::size_t>(r), 1,
                                &peers_[static_cast<std::size_t>(r)], 0, nullptr);
    if (inserted != 1) {
      ofi_check(inserted < 0 ? inserted : -FI_EINVAL, fmt::format("fi_av_insert (rank {})", r));
    }
  }
}

Registration OfiFabric::register_memory(const void* buffer, std::size_t bytes,
                                        std::uint64_t access) {
  const int mode = info_->domain_attr->mr_mode;
  std::uint64_t requested_key = (mode & FI_MR_PROV_KEY) ? 0 : next_key_++;
  fid_mr* mr = nullptr;
  ofi_check(fi_mr_reg(domain_, buffer, bytes, access, 0, requested_key, 0, &mr, nullptr),
            "fi_mr_reg");
  Registration registration(mr);
  if (mode & FI_MR_ENDPOINT) {
    ofi_check(fi_mr_bind(mr, &endpoint_->fid, 0), "fi_mr_bind");
    ofi_check(fi_mr_enable(mr), "fi_mr_enable");
  }
  return registration;
}

Registration OfiFabric::register_local(const void* buffer, std::size_t bytes,
                                       std::uint64_t access) {
  if (!(info_->domain_attr->mr_mode & FI_MR_LOCAL)) return {};
  return register_memory(buffer, bytes, access);
}

Registration OfiFabric::register_remote(void* buffer, std::size_t bytes) {
  return register_memory(buffer, bytes, FI_REMOTE_WRITE);
}

std::uint64_t OfiFabric::remote_address(const void* buffer) const {
  if (info_->domain_attr->mr_mode & FI_MR_VIRT_ADDR) return reinterpret_cast<std::uint64_t>(buffer);
  return 0;
}

}  // namespace courier::net::detail
